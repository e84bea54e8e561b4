/** The spec's GET /usage body. `limit` / `plan_limit` / `paygo_limit` null = unlimited. */
export interface KeyUsage {
  usage: number;
  limit: number | null;
  search_usage: number;
  extract_usage: number;
  crawl_usage: number;
  map_usage: number;
  research_usage: number;
}

export interface AccountUsage {
  current_plan: string;
  plan_usage: number;
  plan_limit: number | null;
  paygo_usage: number;
  paygo_limit: number | null;
  search_usage: number;
  extract_usage: number;
  crawl_usage: number;
  map_usage: number;
  research_usage: number;
}

export interface UsageReport {
  key: KeyUsage;
  account: AccountUsage;
}
