import { ConfigError, fetchEnv, loadConfig } from './env';

describe('SHARED_INDEX', () => {
  it('is off unless set, and accepts only a boolean spelling', () => {
    expect(loadConfig(fetchEnv, {}).SHARED_INDEX).toBe(false);
    expect(loadConfig(fetchEnv, { SHARED_INDEX: 'true' }).SHARED_INDEX).toBe(true);
    expect(loadConfig(fetchEnv, { SHARED_INDEX: 'no' }).SHARED_INDEX).toBe(false);
    expect(() => loadConfig(fetchEnv, { SHARED_INDEX: 'everyone' })).toThrow(ConfigError);
    expect(() => loadConfig(fetchEnv, { SHARED_INDEX: 'everyone' })).toThrow(/SHARED_INDEX/);
  });
});
