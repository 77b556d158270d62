// bench/load.ts's options (the benchmark itself is run by hand: npm run bench:load; its figures are
// in docs/benchmarks.md). Only the parsing: without the new options it runs as before; --shards and
// --processes take the shapes the bot can run (one process, or one per shard under the manager).
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../bench/load';

describe('bench:load arguments', () => {
  it('without --shards or --processes: one shard, one process, the other defaults as before', () => {
    expect(parseArgs([])).toEqual({
      games: 50,
      restart: false,
      ruleset: 'chnu-2016',
      think: [300, 1500],
      speech: null,
      maxSeconds: 900,
      arrival: 5,
      returning: false,
      shards: 1,
      processes: 1,
    });
    expect(parseArgs(['--games', '200', '--speech', '15000-5000'])).toMatchObject({
      games: 200,
      speech: [5000, 15000],
      shards: 1,
      processes: 1,
    });
  });

  it('--shards N alone runs N shards in one process; with --processes N, one process per shard', () => {
    expect(parseArgs(['--shards', '2'])).toMatchObject({ shards: 2, processes: 1 });
    expect(parseArgs(['--games', '200', '--shards', '2', '--processes', '2'])).toMatchObject({
      games: 200,
      shards: 2,
      processes: 2,
    });
    // --processes alone: a shard for each
    expect(parseArgs(['--processes', '3'])).toMatchObject({ shards: 3, processes: 3 });
    // one process may restart with several shards
    expect(parseArgs(['--shards', '2', '--restart'])).toMatchObject({ shards: 2, processes: 1, restart: true });
  });

  it('refuses what the bot cannot run, saying why', () => {
    expect(() => parseArgs(['--shards', '4', '--processes', '2'])).toThrow(/one process per shard/);
    expect(() => parseArgs(['--shards', '1', '--processes', '2'])).toThrow(/each process holds at least one shard/);
    expect(() => parseArgs(['--shards', '2', '--processes', '2', '--restart'])).toThrow(/--restart/);
    expect(() => parseArgs(['--shards', '0'])).toThrow(/bad argument --shards/);
    expect(() => parseArgs(['--shards', '17'])).toThrow(/bad argument --shards/);
    expect(() => parseArgs(['--processes'])).toThrow(/bad argument --processes/);
  });
});
