// An image's format, from its URL or its `type` (image_format, docs/checks.md §5.2).

/** `image/svg+xml` → `svg`. */
export function subtype(mime: string): string {
  const slash = mime.indexOf('/');
  return (slash === -1 ? '' : mime.slice(slash + 1)).split('+')[0].trim().toLowerCase();
}

/**
 * The format: a data: URI's MIME subtype, else the extension of the URL's last path segment
 * (query and fragment ignored), else the element's `type`. '' when none of these says.
 * `pathname`: the resolved path of a URL value, null when it does not resolve.
 */
export function imageFormat(raw: string, type: string | null, pathname: (raw: string) => string | null): string {
  const trimmed = raw.trim();
  if (/^data:/i.test(trimmed)) return subtype(trimmed.slice(5).split(/[;,]/)[0]);
  const path = pathname(trimmed) ?? trimmed.split(/[?#]/)[0];
  const segment = path.slice(path.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  const ext = dot === -1 ? '' : segment.slice(dot + 1).toLowerCase();
  if (ext !== '') return ext;
  return type === null ? '' : subtype(type);
}
