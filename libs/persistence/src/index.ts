export * from './migrations';
export * from './prisma-client';
