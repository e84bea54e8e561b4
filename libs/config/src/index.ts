export * from './env';
export { cgroupCpuLimit, usableCpuCount } from './cpu-quota';
