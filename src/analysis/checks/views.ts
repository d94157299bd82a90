// How a check's value and error payload are shown: plain data naming a generic view, never
// HTML. The share page (src/render/values.ts) renders each kind; the engine knows nothing
// of it. `ViewFor<T>` lets a check name only the views that fit its value's type.

/** How each item of a list is shown. */
export type ItemView =
  | { kind: 'text' }
  | { kind: 'code' }
  /** A link when http(s), else text: `javascript:` and friends are never links. */
  | { kind: 'url' }
  /** `{url, text}`: the page's text (or `emptyText`) above its URL. */
  | { kind: 'link'; emptyText: string };

/** Nothing beyond the one-line summary, which states the value (a number, a verdict). */
export interface NoneView {
  kind: 'none';
}

/** A string shown as a quote, unless the summary already says it. */
export interface TextView {
  kind: 'text';
}

/** A URL, unless it is the page itself or the summary already says it. */
export interface UrlView {
  kind: 'url';
}

/** A list, its first items shown and the rest collapsed. */
export interface ListView {
  kind: 'list';
  caption: string | null;
  /** What the items are, for "Show 12 more links". */
  noun: string;
  item: ItemView;
  /** Left out when the summary already names every item. */
  skipIfDescribed?: boolean;
}

/** Short words side by side. */
export interface ChipsView {
  kind: 'chips';
  caption: string | null;
  skipIfDescribed?: boolean;
}

/** `{group: [...]}`: a captioned list per group, with its count. */
export interface GroupsView {
  kind: 'groups';
  /** Group key → [caption, noun]; other keys are shown as they are. */
  captions: Record<string, readonly [string, string]>;
  item: ItemView;
}

/** `{h1: [...], h2: [...]}` as one outline of headings. */
export interface OutlineView {
  kind: 'outline';
}

/** `{group: any JSON}`: a captioned property list per group. */
export interface PropertiesView {
  kind: 'properties';
}

/** `{tag: count}` as `<tag> × count` chips, unless the summary names every tag. */
export interface CountsView {
  kind: 'counts';
}

export type ViewDescriptor =
  | NoneView
  | TextView
  | UrlView
  | ListView
  | ChipsView
  | GroupsView
  | OutlineView
  | PropertiesView
  | CountsView;

/** The views that can show a value of type T (brackets keep unions whole). */
export type ViewFor<T> =
  | NoneView
  | ([T] extends [string | null] ? TextView | UrlView : never)
  | ([T] extends [readonly unknown[] | null] ? ListView | ChipsView : never)
  | ([T] extends [Record<string, readonly unknown[]> | readonly []] ? GroupsView | OutlineView : never)
  | ([T] extends [Record<string, unknown> | readonly []] ? PropertiesView : never)
  | ([T] extends [Record<string, number>] ? CountsView : never);
