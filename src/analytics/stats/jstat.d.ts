/** The part of jStat (npm `jstat`, a CommonJS bundle without types) this project uses. */
declare module 'jstat' {
  interface JStatApi {
    beta: { inv(p: number, alpha: number, beta: number): number };
    gamma: { inv(p: number, shape: number, scale: number): number };
    normal: { inv(p: number, mean: number, sd: number): number };
    /** Inverse of a square matrix (Gauss–Jordan). */
    inv(m: number[][]): number[][];
  }
  const jstat: { jStat: JStatApi };
  export default jstat;
}
