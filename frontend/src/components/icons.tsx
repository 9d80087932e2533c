/** Small decorative inline icons: no requests, no icon font. All are aria-hidden. */

import type { ReactElement } from 'react';
import type { ResourceIcon } from '../../../core/content/resources';
import type { SocialLink } from '../../../core/content/author';

type IconProps = { readonly className?: string };

const svgProps = {
  viewBox: '0 0 24 24',
  width: 24,
  height: 24,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export function StarIcon({ className }: IconProps) {
  return (
    <svg {...svgProps} className={className} fill="currentColor" stroke="none">
      <path d="M12 2.5l2.94 5.96 6.56.95-4.75 4.63 1.12 6.54L12 17.49l-5.87 3.09 1.12-6.54L2.5 9.41l6.56-.95z" />
    </svg>
  );
}

function GuideIcon({ className }: IconProps) {
  return (
    <svg {...svgProps} className={className}>
      <path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5z" />
      <path d="M4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5" />
    </svg>
  );
}

function VideoIcon({ className }: IconProps) {
  return (
    <svg {...svgProps} className={className}>
      <rect x="2" y="5" width="15" height="14" rx="2" />
      <path d="M17 10l5-3v10l-5-3z" />
    </svg>
  );
}

function PodcastIcon({ className }: IconProps) {
  return (
    <svg {...svgProps} className={className}>
      <rect x="9" y="2" width="6" height="11" rx="3" />
      <path d="M5 10a7 7 0 0 0 14 0M12 17v5M8 22h8" />
    </svg>
  );
}

const resourceIcons: Record<ResourceIcon, (props: IconProps) => ReactElement> = {
  guide: GuideIcon,
  video: VideoIcon,
  podcast: PodcastIcon,
};

export function ResourceIconView({ icon, className }: IconProps & { readonly icon: ResourceIcon }) {
  const Icon = resourceIcons[icon];
  return <Icon className={className} />;
}

const socialPaths: Record<SocialLink['network'], ReactElement> = {
  Facebook: <path d="M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z" />,
  Instagram: (
    <>
      <rect x="2" y="2" width="20" height="20" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <path d="M17.5 6.5h.01" />
    </>
  ),
  LinkedIn: (
    <>
      <path d="M16 8a6 6 0 0 1 6 6v7h-4v-7a2 2 0 0 0-4 0v7h-4v-7a6 6 0 0 1 6-6z" />
      <rect x="2" y="9" width="4" height="12" />
      <circle cx="4" cy="4" r="2" />
    </>
  ),
};

export function SocialIcon({ network, className }: IconProps & { readonly network: SocialLink['network'] }) {
  return (
    <svg {...svgProps} className={className}>
      {socialPaths[network]}
    </svg>
  );
}
