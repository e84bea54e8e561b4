export * from './migrations';
export * from './prisma-client';
export * from './repositories';
