// Who hosts a game: its creator (or whoever it was handed to with /host transfer), members with
// Manage Server, and members with the server's host role (setting `hostRole`). RULES G-7: the
// host's rulings stand, so this is the one gate of every host command and host button.

export interface Member {
  readonly userId: string;
  /** The member has Manage Server in this server. */
  readonly manageGuild: boolean;
  /** The member's role ids in this server. */
  readonly roles: readonly string[];
}

export type HostRight = 'creator' | 'manage-server' | 'host-role';

/** Why this member may host the game, or null when he may not. */
export function hostRight(
  member: Member,
  game: { readonly hostId: string },
  hostRole: string | null,
): HostRight | null {
  if (member.userId === game.hostId) return 'creator';
  if (member.manageGuild) return 'manage-server';
  if (hostRole !== null && member.roles.includes(hostRole)) return 'host-role';
  return null;
}

export function canHost(member: Member, game: { readonly hostId: string }, hostRole: string | null): boolean {
  return hostRight(member, game, hostRole) !== null;
}
