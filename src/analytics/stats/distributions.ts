/**
 * Quantiles and matrix inversion from jStat (npm `jstat`: one dependency-free file), behind names of our
 * own so the statistics read plainly and the library could be swapped in one place.
 */
import jstat from 'jstat';

const { jStat } = jstat;

/** Level of every interval the project reports. */
export const LEVEL = 0.95;

/** The `p` quantile of Beta(a, b) (a, b > 0). */
export const betaQuantile = (p: number, a: number, b: number): number => jStat.beta.inv(p, a, b);

/** The `p` quantile of Gamma(shape, 1). */
export const gammaQuantile = (p: number, shape: number): number => jStat.gamma.inv(p, shape, 1);

/** The `p` quantile of the standard normal. */
export const normalQuantile = (p: number): number => jStat.normal.inv(p, 0, 1);

/** z of a two-sided interval at `level` (1.95996… for 95 %). */
export const zOf = (level: number = LEVEL): number => normalQuantile(1 - (1 - level) / 2);

/** The inverse of a symmetric positive-definite matrix (rows of equal length). */
export const invert = (m: number[][]): number[][] => jStat.inv(m);
