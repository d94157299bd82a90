// Which URL an <img> or <source> stands for, and its image format (image_keywords, image_format).

import type { Artifacts, ImageInfo, SourceInfo } from './artifacts.js';
import { firstSrcsetUrl } from './urls.js';

function nonBlank(value: string | null): value is string {
  return value !== null && value.trim() !== '';
}

/** The img's `src`, else its first srcset URL; null when it has neither (then it is no image). */
export function imageSource(img: ImageInfo): string | null {
  if (nonBlank(img.src)) return img.src;
  if (nonBlank(img.srcset)) return firstSrcsetUrl(img.srcset);
  return null;
}

/** A source's first srcset URL, else its src. */
function sourceUrl(source: SourceInfo): string | null {
  if (nonBlank(source.srcset)) return firstSrcsetUrl(source.srcset);
  if (nonBlank(source.src)) return source.src;
  return null;
}

/** `image/svg+xml` → `svg`. */
function subtype(mime: string): string {
  const slash = mime.indexOf('/');
  return (slash === -1 ? '' : mime.slice(slash + 1)).split('+')[0].trim().toLowerCase();
}

/**
 * The format: a data: URI's MIME subtype, else the extension of the URL's last path segment
 * (query and fragment ignored), else the element's `type`. '' when none of these says.
 */
export function imageFormat(raw: string, type: string | null, artifacts: Artifacts): string {
  const trimmed = raw.trim();
  if (/^data:/i.test(trimmed)) return subtype(trimmed.slice(5).split(/[;,]/)[0]);
  const path = artifacts.target(trimmed).pathname ?? trimmed.split(/[?#]/)[0];
  const segment = path.slice(path.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  const ext = dot === -1 ? '' : segment.slice(dot + 1).toLowerCase();
  if (ext !== '') return ext;
  return type === null ? '' : subtype(type);
}

export function sourceFormat(source: SourceInfo, artifacts: Artifacts): string {
  const url = sourceUrl(source);
  return url === null ? (source.type === null ? '' : subtype(source.type)) : imageFormat(url, source.type, artifacts);
}
