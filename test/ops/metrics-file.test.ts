// METRICS_FILE under the ShardingManager (src/metrics.ts metricsFileOf): the manager gives every
// process the same environment, so each process writes its own file, named after its shards.
import { describe, expect, it } from 'vitest';
import { metricsFileOf } from '../../src/metrics';

describe('metricsFileOf', () => {
  it('keeps the file as given outside the ShardingManager', () => {
    expect(metricsFileOf('/var/mafia/metrics.json', undefined)).toBe('/var/mafia/metrics.json');
  });

  it("names each managed process's file after its shards (SHARDS as the manager sets it)", () => {
    expect(metricsFileOf('/var/mafia/metrics.json', '0')).toBe('/var/mafia/metrics.shard-0.json');
    expect(metricsFileOf('/var/mafia/metrics.json', '1')).toBe('/var/mafia/metrics.shard-1.json');
    expect(metricsFileOf('metrics.json', '[2,3]')).toBe('metrics.shard-2-3.json');
  });

  it('adds the shards at the end of a name without an extension (a dot in a folder is not one)', () => {
    expect(metricsFileOf('/tmp/run.d/metrics', '1')).toBe('/tmp/run.d/metrics.shard-1');
    expect(metricsFileOf('/tmp/.metrics', '1')).toBe('/tmp/.metrics.shard-1');
  });
});
