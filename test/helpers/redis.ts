// A Redis server of the test's own (bench/redis.ts: redis-server on a free port, nothing on disk), plus a way
// to run a command on it directly.

import { createClient } from '@redis/client';
import { type RunningRedis, startRedis as startRedisServer } from '../../bench/redis.js';

export interface TestRedis extends RunningRedis {
  /** Runs one command on a connection of its own. */
  command(args: string[]): Promise<unknown>;
}

export async function startRedis(): Promise<TestRedis> {
  const redis = await startRedisServer();
  return {
    ...redis,
    async command(args) {
      const client = createClient({ url: redis.url });
      client.on('error', () => {});
      await client.connect();
      try {
        return await client.sendCommand(args);
      } finally {
        client.destroy();
      }
    },
  };
}
