/** Served and legacy-served work requests of one caller. */
export interface CallerVolume {
  integration: string;
  served: number;
  legacyServed: number;
}
