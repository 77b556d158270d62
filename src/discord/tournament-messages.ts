// What a tournament shows, written to the outbox where the rules in src/app/tournaments.ts say:
// the board and each round's message are slots of the tournament's holder game (so they survive
// restarts and deletion); the finalists and the result are posts.
import type { TournamentSnapshot, TournamentView } from '../app/tournaments';
import type { TournamentRow } from '../db/tournament-store';
import type { OutboxStore } from '../db/outbox-store';
import type { StandingRow } from '../engine/standings';
import { channelDest } from './destinations';
import { boardPayload, finalPayload, resultPayload, roundPayload } from './tournament-render';

export class TournamentMessages implements TournamentView {
  constructor(private readonly outbox: OutboxStore) {}

  async refresh(tour: TournamentRow, s: TournamentSnapshot, now: number): Promise<void> {
    const dest = channelDest(tour.channelId);
    const board = boardPayload(tour, s.players, s.phase, s.winners);
    const holder = tour.holderGameId;
    await this.outbox.setSlot(holder, 'board', 'message', dest, board, now, { repost: tour.status !== 'cancelled' });
    const rounds = [...new Set(s.tables.map((x) => x.round))];
    for (const round of rounds) {
      const payload = roundPayload(tour, round, s.tables, s.phase);
      const repost = tour.status === 'running';
      await this.outbox.setSlot(holder, `round:${round}`, 'message', dest, payload, now, { repost });
    }
  }

  async result(tour: TournamentRow, standings: readonly StandingRow[], now: number): Promise<void> {
    const payload = resultPayload(tour, standings);
    const opts = { meta: { what: 'tournament-result' as const }, key: 'result' };
    await this.outbox.add(tour.holderGameId, channelDest(tour.channelId), 'post', payload, now, opts);
  }

  async finalists(
    tour: TournamentRow,
    standings: readonly StandingRow[],
    finalists: readonly string[],
    lot: TournamentRow['finalLot'],
    now: number,
  ): Promise<void> {
    const payload = finalPayload(tour, standings, finalists, lot);
    const opts = { meta: { what: 'tournament-final' as const }, key: 'finalists' };
    await this.outbox.add(tour.holderGameId, channelDest(tour.channelId), 'post', payload, now, opts);
  }
}
