import { ALL_JOB_DEFINITIONS, jobDefinitionsOfQueue } from './job-catalogue';
import { QueueName } from './queue-name';

describe('job catalogue', () => {
  it('lists every job once, with a unique name per queue', () => {
    const keys = ALL_JOB_DEFINITIONS.map((definition) => `${definition.queue}/${definition.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('groups jobs by queue', () => {
    expect(jobDefinitionsOfQueue(QueueName.Extract).map((definition) => definition.name)).toEqual(['extract-url']);
    expect(jobDefinitionsOfQueue(QueueName.Crawl).map((definition) => definition.name).sort()).toEqual(['crawl', 'map']);
    expect(jobDefinitionsOfQueue(QueueName.Research).map((definition) => definition.name)).toEqual(['research']);
  });
});
