/**
 * The distinct people behind one caller over a span: those a verified credential named, served work
 * on each era, and in all (a person who used both eras counts once in `total`).
 */
export interface CallerPeople {
  integration: string;
  legacy: number;
  modern: number;
  total: number;
}

/** The distinct people behind one caller on one UTC day. */
export interface CallerPeopleDay {
  day: number;
  legacy: number;
  modern: number;
  total: number;
}
