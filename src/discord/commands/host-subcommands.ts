// The /host subcommands, one list: the command is built from it (commands/host.ts), and the
// handlers switch over it exhaustively (commands/host.ts, host-tools.ts). Each is a deed of
// app/hosts.ts, whose table says whether a host who plays may do it.
import type { HostDeed } from '../../app/hosts';

/**
 * The /host subcommands: the game's host actions, substitute and cancel (answered in
 * commands/host.ts `HostCommand`) and the toolkit's (host-tools.ts `HostTools.command()`).
 */
export const HOST_SUBCOMMANDS = [
  'foul',
  'remove',
  'kill',
  'skip',
  'end',
  'best',
  'bonus',
  'substitute',
  'cancel',
  'log',
  'pause',
  'resume',
  'extend',
  'revive',
  'undo',
  'annul',
  'transfer',
  'panel',
] as const satisfies readonly HostDeed[];
export type HostSubcommand = (typeof HOST_SUBCOMMANDS)[number];

/** Whether a subcommand name from Discord is one of /host's. */
export function isHostSubcommand(sub: string): sub is HostSubcommand {
  return (HOST_SUBCOMMANDS as readonly string[]).includes(sub);
}
