// Moved to src/db/outbox-store.ts (the storage seam, docs/storage.md). This re-export only keeps
// src/discord/async-play.ts, tournament.ts and interactions.ts compiling while they are edited
// elsewhere: delete it once their imports read '../db/outbox-store'. No SQL here.
export * from '../db/outbox-store';
