export const CONTACT_KINDS = ['call', 'email', 'ticket', 'meeting', 'other'] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

/** A contact with a caller's owner made by hand, recorded by an operator, optionally about one plan. */
export interface CallerContactRecord {
  id: number;
  integration: string;
  planId: number | null;
  kind: ContactKind;
  note: string;
  at: number;
  by: string;
}

export interface ContactInput {
  integration: string;
  planId: number | null;
  kind: ContactKind;
  note: string;
}
