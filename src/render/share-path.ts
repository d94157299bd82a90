// Where the share page of a report or a website lives: the web routes serve it, mails and the
// dashboard link to it.

export type ShareKind = 'report' | 'website';

export const sharePath = (kind: ShareKind, id: number) => `/${kind}s/${id}`;
