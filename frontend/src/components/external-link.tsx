import type { ReactNode } from 'react';
import { newTabHint } from '../../../core/content/site';

const newTabHintId = 'new-tab-hint';

interface ExternalLinkProps {
  readonly href: string;
  readonly className?: string;
  /** The accessible name when the content is only an image or icon. */
  readonly label?: string;
  readonly children: ReactNode;
}

/**
 * A link that opens in a new tab without giving the new page a handle on this one. Screen
 * readers hear that it opens a new tab as its description, so its name stays what it shows.
 */
export function ExternalLink({ href, className, label, children }: ExternalLinkProps) {
  return (
    <a
      href={href}
      className={className}
      aria-label={label}
      aria-describedby={newTabHintId}
      target="_blank"
      rel="noopener noreferrer"
    >
      {children}
    </a>
  );
}

/** The description every ExternalLink points at; rendered once per page. */
export function NewTabHint() {
  return (
    <p id={newTabHintId} hidden>
      {newTabHint}
    </p>
  );
}
