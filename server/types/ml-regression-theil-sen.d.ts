// The package ships CommonJS without type declarations; this is the part of its API we use.
declare module 'ml-regression-theil-sen' {
  export class TheilSenRegression {
    constructor(x: readonly number[], y: readonly number[]);
    slope: number;
    intercept: number;
  }
}
