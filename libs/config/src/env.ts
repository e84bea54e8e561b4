export function loadDatabaseUrl(): string { return process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift'; }
