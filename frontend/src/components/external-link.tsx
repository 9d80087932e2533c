import type { ReactNode } from 'react';

interface ExternalLinkProps {
  readonly href: string;
  readonly className?: string;
  /** The accessible name when the content is only an image or icon. */
  readonly label?: string;
  readonly children: ReactNode;
}

/** A link that opens in a new tab without giving the new page a handle on this one. */
export function ExternalLink({ href, className, label, children }: ExternalLinkProps) {
  return (
    <a href={href} className={className} aria-label={label} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}
