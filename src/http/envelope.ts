// The success envelope of docs/api.md, built in one place: a resource is `{data, status}`, a
// deletion `{data: {id}, status: 200}`, a list Laravel's page with `status` last. (The report's
// JSON is written as bytes instead, in the same shape: resources/report.ts.)

/** A resource shown or updated. */
export const ok = <T>(data: T) => ({ data, status: 200 as const });

/** A resource just created (the route also answers 201). */
export const created = <T>(data: T) => ({ data, status: 201 as const });

/** A resource deleted: only its id. */
export const deleted = (id: number) => ok({ id });

/** A page of a list: the items, then the page's links, meta and numbers (pagination.ts). */
export const listed = <T, Page extends object>(items: T[], page: Page) => ({ data: items, ...page, status: 200 as const });
