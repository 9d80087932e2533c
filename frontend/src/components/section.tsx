import type { ReactNode } from 'react';

/** The id of a section's lead paragraph, for controls it describes. */
export const sectionLeadId = (name: string) => `${name}-lead`;

interface SectionProps {
  /** Names the section's heading (`{name}-title`) and lead (`{name}-lead`) for aria links. */
  readonly name: string;
  readonly title: string;
  readonly lead?: string;
  /** The section's own id, when something links to it. */
  readonly anchorId?: string;
  readonly tinted?: boolean;
  readonly className?: string;
  readonly containerClassName?: string;
  readonly children: ReactNode;
}

/** A landing-page section: a region named by its heading, with an optional lead paragraph. */
export function Section({
  name,
  title,
  lead,
  anchorId,
  tinted,
  className,
  containerClassName,
  children,
}: SectionProps) {
  const classes = ['section', tinted && 'section--tinted', className].filter(Boolean).join(' ');
  return (
    <section id={anchorId} className={classes} aria-labelledby={`${name}-title`}>
      <div className={containerClassName ? `container ${containerClassName}` : 'container'}>
        <h2 id={`${name}-title`} className="section__title">
          {title}
        </h2>
        {lead && (
          <p id={sectionLeadId(name)} className="section__lead">
            {lead}
          </p>
        )}
        {children}
      </div>
    </section>
  );
}
