// A hand-reviewed map from every docs/rules.md id to files whose assertions would FAIL if that rule were
// broken: a scenario's `expect` (its refused steps, `out`, `checks`, `points`, `at`) or a test's
// expect() calls. Built by reading the scenarios' steps and expect blocks and the tests, not from
// the `rules` fields (a scenario may list an id it only passes through). rule-coverage.test.ts
// checks that every id has an entry, every file exists, every scenario has an `expect`, and every
// test file has a title naming the id.
//
// Paths are relative to the project; `shared/scenarios/...` is the shared conformance set.
// Each comment says what, in those files, breaks when the rule does.

const S = (name: string) => `test/scenarios/${name}.json`;
const SH = (name: string) => `shared/scenarios/${name}.json`;
const T = (name: string) => `test/engine/${name}.test.ts`;

export const ASSERTED_BY: Readonly<Record<string, readonly string[]>> = {
  // ---- G. Terms and the common frame
  // The deal is input: Don on 1 and Sheriff on 10 answer the checks by that deal; the shell's
  // shuffle is a crypto permutation.
  'G-1': [S('chnu-deal-as-given'), 'test/discord/unit.test.ts'],
  // Composition: a wrong deal is refused; kiev colours (prostitute black, maniac red) in the
  // commissioner's answers and in the win (black wins only once the maniac is gone).
  'G-2': [T('views'), S('kiev-night0-and-colours'), S('kiev-black-wins-rating')],
  // Night/day numbering: `at` labels up to day 10, leaves dated day 3/6/9 and night 0.
  'G-3': [S('chnu-opener-wraps-round-table'), S('chnu-night0-leave-no-round')],
  // Acquaintance (who knows whom), nothing on night 0, night 0 ends on its timer or the host only
  // (the last two: host rulings on night 0, then the timer still ends it).
  'G-4': [
    T('views'),
    T('option-views'),
    S('chnu-night0-and-host-skip'),
    S('classic-stages-end-when-all-in'),
    S('chnu-night0-leave-no-round'),
    S('classic-all-leave-together'),
  ],
  // A left player is refused everything (refused list), except his own last words and the
  // post-game vote (a left player votes and is best player).
  'G-5': [
    S('chnu-left-player-refused'),
    S('classic-host-kill-and-remove'),
    S('chnu-last-words'),
    S('chnu-night0-leave-no-round'),
  ],
  // Reveal on leaving: kiev-12 cards in the morning and in the public view; chnu/classic hidden.
  'G-6': [T('views')],
  // Host skips of every stage, host kill/remove/end stand; every override is in the host log.
  'G-7': [T('frame'), S('chnu-night0-and-host-skip'), S('classic-host-kill-and-remove')],
  // Leaving mid-stage: struck-off candidate, void votes cast again, void night shot, void yes.
  'G-8': [
    S('chnu-candidate-leaves-mid-vote'),
    S('classic-leave-during-vote'),
    S('chnu-shooter-removed-at-night'),
    S('classic-all-leave-vote-host-kill-voter'),
  ],
  // Targets: no self-check, no left seat, best-move seats distinct/other/at the table; the post-game
  // vote may name a left player, not a seat that never sat (11).
  'G-9': [
    S('chnu-best-move-guesses'),
    S('chnu-sheriff-don-question'),
    S('chnu-left-player-refused'),
    S('chnu-night0-leave-no-round'),
  ],

  // ---- N. Night
  'N-1': [S('chnu-night0-and-host-skip'), S('kiev-night0-and-colours'), S('classic-stages-end-when-all-in')],
  // The night ends once every owed action is in (and not before: askDon), a shot cannot be skipped,
  // a timer ends it with unshot = miss.
  'N-2': [
    S('chnu-night-ends-when-all-in'),
    S('chnu-sheriff-don-question'),
    S('classic-night-actions-refused'),
    S('classic-timers-per-turn'),
  ],
  // Unanimous shot: split shots and a missing shooter miss; blacks may shoot a black.
  'N-3': [S('chnu-unanimous-shot'), S('classic-best-move-black-victim'), SH('chnu-refusals-and-miss')],
  // The Don decides; without him the lowest mafia; frozen decider passes it on; no pick, no shot;
  // the prostitute shoots last.
  'N-4': [
    S('kiev-don-decides'),
    S('kiev-don-gone-lowest-mafia'),
    S('kiev-frozen-decider'),
    S('kiev-decider-chain'),
    S('kiev-no-shot'),
    S('kiev-prostitute-shoots'),
  ],
  // Don's check answers (checks list), once per night, only to the Don.
  'N-5': [S('chnu-sheriff-don-question'), S('chnu-deal-as-given'), T('views')],
  // Sheriff's check and the chnu askDon question (and the option both ways).
  'N-6': [S('chnu-sheriff-don-question'), S('option-askDon-false-chnu'), S('option-askDon-true-classic'), T('views')],
  // Freeze cancels actions (answer "frozen", no kill, no heal), the three-night streak, tellFrozen.
  'N-7': [S('kiev-freeze-cancels'), S('kiev-freeze-streak'), S('kiev-note-frozen-used-up'), T('option-views')],
  // Heal beats every kill of the night, self-heal, the streak, a heal lifts a freeze.
  'N-8': [S('kiev-doctor'), S('kiev-heal-streak'), S('kiev-note-frozen-killed')],
  // Maniac: no self-kill, may decline, his kill lands.
  'N-9': [S('kiev-maniac'), SH('kiev-full-game')],
  // Order of resolution: freeze then heal then kills at once (both die -> draw), then checks.
  'N-10': [S('kiev-freeze-cancels'), S('kiev-doctor'), S('kiev-draw-last-two')],
  // Commissioner: answers at resolution (or at once, by option), the note read / burnt / used up
  // when frozen.
  'N-11': [
    S('kiev-note-read'),
    S('kiev-note-burnt'),
    S('kiev-note-frozen-used-up'),
    S('kiev-note-frozen-killed'),
    S('kiev-freeze-cancels'),
    S('option-commissionerAnswer-at-once'),
  ],
  // Morning announcement: seat order, never who shot, kiev cards; a quiet night said so.
  'N-12': [T('views'), S('kiev-don-decides')],
  // Secrecy: public events and views over random games never name a role before the rules do.
  'N-13': [T('views')],

  // ---- D. Day
  // Openers: chnu seat k, classic after the previous first speaker (lost speech not counted), kiev
  // accusations from seat k.
  'D-1': [
    S('chnu-day-opener'),
    S('chnu-opener-wraps-round-table'),
    S('classic-opener-rotation'),
    S('classic-opener-lost-speech'),
    S('kiev-accusations'),
  ],
  // Nomination limits: own turn only, one a day, no repeat, no self, no left player.
  'D-2': [
    S('chnu-nomination-order'),
    S('kiev-accusations'),
    S('chnu-left-player-refused'),
    SH('chnu-refusals-and-miss'),
  ],
  // Voting and shootout speeches in nomination order (non-voters go to the last nominated).
  'D-3': [S('chnu-nomination-order'), S('chnu-revote-nonvoter-last'), S('chnu-tie-revote-nobody')],
  // Day 1 single candidate: no vote (chnu/classic), a vote (kiev); no candidate, no vote.
  'D-4': [
    S('chnu-single-candidate'),
    S('classic-day1-single-candidate'),
    S('kiev-voting-abstain'),
    S('classic-host-kill-and-remove'),
  ],
  // One vote each, not changeable; self-vote (chnu/classic) or not (kiev); non-voters to the last
  // candidate or abstaining; a cast vote stands; a kiev candidate needs a vote.
  'D-5': [
    S('chnu-nomination-order'),
    S('classic-nonvoter-last-candidate'),
    S('kiev-voting-abstain'),
    S('kiev-cast-vote-stands-after-4th-foul'),
    S('kiev-four-and-five-fouls'),
  ],
  // Foul votes added at the next vote as a candidate, then spent (and off with the option).
  'D-6': [S('kiev-foul-votes'), S('kiev-fouled-candidate'), S('option-foulVotes-false-kiev')],
  // Ties: shootout and revote, nobody on a second tie (chnu/kiev), the "all leave" vote (classic),
  // no tie-break with 4 or fewer alive.
  'D-7': [
    S('chnu-tie-revote-nobody'),
    S('kiev-shootout'),
    S('classic-all-leave-vote-fails'),
    S('classic-all-leave-vote-odd-passes'),
    S('classic-four-alive-tie'),
    S('classic-four-alive-revote-tie'),
    S('classic-three-alive-tie'),
  ],
  // Don's take: only in his last words after the vote, lost with 2 fouls, no last words for the
  // taken, it can end the game; a Don killed at night has none.
  'D-8': [S('kiev-don-take'), S('kiev-don-take-lost'), S('kiev-take-ends-game'), S('kiev-don-killed-at-night')],
  // Last words: after the vote, in the morning (chnu/classic) and not in kiev, none after a removal
  // or a game-ending leave; lost speech keeps them.
  'D-9': [
    S('chnu-last-words'),
    S('chnu-red-full-strength'),
    S('kiev-don-decides'),
    S('classic-warnings-lost-speech-removal'),
    S('chnu-warnings-shootout'),
    T('fouls'),
  ],
  // Best move: only the night-1 victim, once, in his last words; none when night 1 is a miss.
  'D-10': [
    S('chnu-best-move-guesses'),
    S('chnu-best-move-miss'),
    S('classic-best-move-night1-miss'),
    S('classic-night-actions-refused'),
  ],

  // ---- M. Messages (who may write is a function of the state; the shell enforces it)
  // channelWriters: nobody at night (every night, over random games), the speaker only, nobody
  // during a vote, kiev discussion for those who keep the right.
  'M-1': [T('messages')],
  'M-2': [T('messages'), T('option-views')],
  // A left player writes in his own last words only (also checked over random games).
  'M-3': [T('messages')],

  // ---- F. Fouls
  // Each foul is logged with its reason; "cannot be taken back": the engine has no action that
  // removes a foul, and a count below 1 is refused (fouls.test.ts asserts both).
  'F-1': [T('fouls')],
  // Which speech the 3rd warning takes (every moment, the morning included), shootout and last words
  // kept, the 4th removes; classic points: -0.5 each and -1 for the removal (-3 in all).
  'F-2': [
    T('fouls'),
    S('chnu-warnings'),
    S('chnu-warning-during-turn'),
    S('chnu-warnings-shootout'),
    S('classic-warnings-lost-speech-removal'),
    S('chnu-async-window'),
    S('classic-draw-removal-is-a-leave'),
  ],
  // 3 fouls: no talk, no accusation; 4: no vote (a cast vote stands); 5: removed, the game goes on.
  // "Talking at night costs 2 fouls at once" is the host's judgement: he gives a foul with count 2
  // (the engine cannot hear talk); kiev-full-game does exactly that.
  'F-3': [
    S('kiev-four-and-five-fouls'),
    S('kiev-three-fouls-skipped'),
    S('kiev-cast-vote-stands-after-4th-foul'),
    S('kiev-fouled-candidate'),
  ],
  // The disqualification itself is the host's ruling (a prompt after leaving is not visible to the
  // engine); what the engine does is the "end, winner = X" override and its points.
  'F-4': [S('chnu-host-end-black-disqualification')],

  // ---- E. End of the game
  'E-1': [
    S('chnu-red-wins-at-night'),
    S('chnu-black-wins-at-night'),
    S('chnu-host-kills-to-parity'),
    S('classic-all-leave-together'),
    S('classic-removal-ends-game'),
  ],
  'E-2': [S('kiev-draw-last-two'), S('kiev-black-wins-rating'), S('kiev-prostitute-shoots'), S('kiev-take-ends-game')],
  // Draw after three quiet rounds (not earlier; night 0 in no round; a removal is a leave).
  'E-3': [
    S('chnu-draw-three-quiet-rounds'),
    S('chnu-draw-after-night-4'),
    S('chnu-night0-leave-no-round'),
    S('classic-draw-removal-is-a-leave'),
    S('kiev-draw-night-3'),
    S('kiev-draw-quiet-rounds'),
  ],
  'E-4': [S('chnu-host-end-draw'), S('classic-host-end-black-best'), S('chnu-host-end-black-disqualification')],
  // Roles shown, result announced, post-game vote open, points only when it closes.
  'E-5': [T('frame'), S('classic-stages-end-when-all-in'), S('chnu-draw-three-quiet-rounds')],

  // ---- S. Scoring (points seat by seat in the scenarios' expect)
  'S-1': [
    S('chnu-black-wins-at-night'),
    S('chnu-best-move-half'),
    S('chnu-red-full-strength'),
    S('chnu-best-move-black-player'),
    S('chnu-draw-three-quiet-rounds'),
    S('chnu-sheriff-best-move-removed-player'),
  ],
  'S-2': [
    T('scoring'),
    S('classic-red-wins-points'),
    S('classic-all-leave-ends-game'),
    S('classic-black-wins-sheriff-night2'),
    S('classic-sheriff-voted-out-charged'),
    S('classic-draw-removal-is-a-leave'),
    S('classic-best-move-black-victim'),
    S('classic-sheriff-shot-void-shooter'),
  ],
  'S-3': [S('kiev-rating-ties'), S('kiev-black-wins-rating'), S('kiev-draw-last-two')],
  // chnu 5 votes with the host's, host breaks a tie or nobody; classic host names; kiev ranks; the
  // vote closes only on its timer or the host (stays open after the host's best).
  'S-4': [
    S('chnu-draw-three-quiet-rounds'),
    S('chnu-host-end-black-disqualification'),
    S('chnu-host-end-draw'),
    S('chnu-host-kills-to-parity'),
    S('classic-host-end-black-best'),
    S('kiev-rating-ties'),
    S('classic-stages-end-when-all-in'),
  ],
  // Every tie-break step, its order (adjacent swaps) and its presence.
  'S-5': [T('standings')],

  // ---- T. Tournament
  // Every player once a round, repeats at the lower bound for 20/30/40 players (a worse spread
  // fails the histogram), the add/remove count; the e2e tournament checks the stored draw.
  'T-1': [T('standings'), T('tournament'), 'test/e2e/tournament.test.ts'],
  // The ten best after the qualifiers only (final points ignored), S-5 titles, the lot at a level cut.
  'T-2': [T('standings'), T('tournament'), 'test/e2e/tournament.test.ts'],
  // Points over all four games, level points by titles: the e2e winner is settled that way.
  'T-3': [T('standings'), T('tournament'), 'test/e2e/tournament.test.ts'],
  // A non-behaviour: entry limits are not checked. standings.test.ts asserts it: the draw takes ten
  // players of the same faculty.
  'T-4': [T('standings')],

  // ---- P. Pace
  'P-1': [S('chnu-async-window'), S('classic-async-window'), T('views'), T('option-views'), T('fouls')],
  // Stages end once all is in; night 0 (a host ruling does not end it), kiev's discussion and the
  // post-game vote only on their timer or the host.
  'P-2': [
    S('chnu-night-ends-when-all-in'),
    S('classic-stages-end-when-all-in'),
    S('kiev-accusations'),
    S('classic-async-last-passer-leaves'),
    S('classic-all-leave-together'),
  ],
  'P-3': [S('chnu-speech-timeout'), S('classic-timers-per-turn'), S('classic-async-tie'), T('views')],
  // The morning (its last words included) is day k+1: the clock, labels and what is dated in it, and
  // a 3rd warning in it costs that day's speech.
  'P-4': [T('frame'), T('fouls'), S('chnu-last-words')],
};
