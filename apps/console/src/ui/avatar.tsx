import { useState } from 'react';

export interface AvatarProps {
  /** The picture; the initials show while there is none or when it fails to load. */
  readonly src: string | undefined;
  readonly initials: string;
  readonly size?: number;
}

/** A round picture beside a name; decorative (the name is always written next to it). */
export function Avatar({ src, initials, size = 36 }: AvatarProps) {
  const [failed, setFailed] = useState<string | undefined>();
  const show = src !== undefined && failed !== src;
  return (
    <span className="avatar" aria-hidden="true" style={{ width: size, height: size, flexBasis: size }}>
      {show ? <img src={src} alt="" width={size} height={size} loading="lazy" onError={() => setFailed(src)} /> : <span>{initials}</span>}
    </span>
  );
}

/** Two letters for a name: the first letters of its first two words, or its first two letters. */
export function initialsOf(name: string): string {
  const words = name.replace(/[^a-z0-9]/gi, ' ').trim().split(/\s+/);
  return ((words[0]?.[0] ?? '?') + (words[1]?.[0] ?? words[0]?.[1] ?? '')).toUpperCase();
}
