/** A small set of 16-px line icons, drawn inline (no icon font, nothing fetched). */
import type { ReactNode } from 'react';

const PATHS = {
  transactions: <path d="M3 4.5h10M3 8h10M3 11.5h6" />,
  applications: (
    <>
      <rect x="3" y="2.5" width="10" height="11" rx="1.5" />
      <path d="M5.5 6h5M5.5 8.5h5M5.5 11h3" />
    </>
  ),
  team: (
    <>
      <circle cx="6" cy="5.5" r="2" />
      <circle cx="11" cy="6" r="1.6" />
      <path d="M2.5 13c0-2.2 1.6-3.8 3.5-3.8S9.5 10.8 9.5 13M9.8 9.6c.4-.2.8-.3 1.2-.3 1.5 0 2.6 1.3 2.6 3.2" />
    </>
  ),
  documents: (
    <>
      <path d="M4 2.5h5l3 3v8H4z" />
      <path d="M9 2.5v3h3" />
    </>
  ),
  card: (
    <>
      <rect x="2" y="4" width="12" height="8.5" rx="1.5" />
      <path d="M2 7h12M4.5 10.5h3" />
    </>
  ),
  webhooks: (
    <>
      <circle cx="5" cy="11" r="2" />
      <circle cx="11" cy="11" r="2" />
      <circle cx="8" cy="4.5" r="2" />
      <path d="M7 6.3 5.6 9M9 6.3l1.4 2.7M7 11h2" />
    </>
  ),
  sends: <path d="M2.5 8h8M8 5l3 3-3 3M13.5 3.5v9" />,
  listener: (
    <>
      <path d="M8 10.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z" />
      <path d="M4.2 4.2a5.5 5.5 0 0 0 0 7.6M11.8 4.2a5.5 5.5 0 0 1 0 7.6" />
    </>
  ),
  settings: (
    <>
      <circle cx="8" cy="8" r="2" />
      <path d="M8 1.8v1.7M8 12.5v1.7M1.8 8h1.7M12.5 8h1.7M3.6 3.6l1.2 1.2M11.2 11.2l1.2 1.2M3.6 12.4l1.2-1.2M11.2 4.8l1.2-1.2" />
    </>
  ),
  search: (
    <>
      <circle cx="7" cy="7" r="4" />
      <path d="m10 10 3.5 3.5" />
    </>
  ),
  sun: (
    <>
      <circle cx="8" cy="8" r="2.8" />
      <path d="M8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1" />
    </>
  ),
  moon: <path d="M12.5 9.5A5 5 0 0 1 6.5 3.5a5 5 0 1 0 6 6z" />,
  close: <path d="m4 4 8 8M12 4l-8 8" />,
  chevronDown: <path d="m4.5 6.5 3.5 3.5 3.5-3.5" />,
  refresh: (
    <>
      <path d="M13 8a5 5 0 1 1-1.5-3.6" />
      <path d="M13 2.5v3h-3" />
    </>
  ),
  download: <path d="M8 2.5v8M5 7.5l3 3 3-3M3 13.5h10" />,
  plus: <path d="M8 3v10M3 8h10" />,
  check: <path d="m3.5 8.5 3 3 6-7" />,
  chart: <path d="M2.5 13.5h11M4.5 11V8M8 11V4M11.5 11V6.5" />,
  alert: (
    <>
      <path d="M8 2 1.8 13h12.4z" />
      <path d="M8 6.5v3M8 11.3v.2" />
    </>
  ),
  offline: (
    <>
      <path d="M2 2l12 12" />
      <path d="M5.5 10.5a3.5 3.5 0 0 1 5 0M3 8a7 7 0 0 1 3-1.8M13 8a7 7 0 0 0-2.6-1.7M8 13h.01" />
    </>
  ),
  play: <path d="M5 3.5v9l7-4.5z" />,
  stop: <rect x="4" y="4" width="8" height="8" rx="1" />,
  link: (
    <path d="M7 9a2.5 2.5 0 0 0 3.5 0l2-2A2.5 2.5 0 0 0 9 3.5l-.5.5M9 7a2.5 2.5 0 0 0-3.5 0l-2 2A2.5 2.5 0 0 0 7 12.5l.5-.5" />
  ),
  command: (
    <path d="M6 6V4.5A1.5 1.5 0 1 0 4.5 6H11.5A1.5 1.5 0 1 0 10 4.5v7a1.5 1.5 0 1 0 1.5-1.5h-7A1.5 1.5 0 1 0 6 11.5z" />
  ),
  upload: <path d="M8 10.5v-8M5 5.5l3-3 3 3M3 13.5h10" />,
  trash: <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 9h5.8l.6-9" />,
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16, label }: { name: IconName; size?: number; label?: string }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label === undefined ? undefined : 'img'}
      aria-hidden={label === undefined ? true : undefined}
      aria-label={label}
    >
      {PATHS[name]}
    </svg>
  );
}
