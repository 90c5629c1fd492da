// Plays random games on kaiser-lib (the engine of kaisergame.com) and prints one JSON line a
// game: its settings, first dealer, every hand as our record writes it (the auction from the
// dealer's left, the kind, tricks per team, who took the five of hearts and the three of
// spades) with kaiser-lib's team scores after it, and its winner. Our own driver: the peer is
// compiled from its fetched source (see kaiserlib_side_by_side.py), never copied here.
//
// usage: node bench/peers/kaiserlib_games.js DIST_DIR GAMES SEED
'use strict';

const [dist, gamesArg, seedArg] = process.argv.slice(2);
const { Game } = require(`${dist}/Game/Game.js`);
console.log = () => {}; // the peer announces each winner on the console

let state = Number(seedArg) >>> 0;
function random() {
  // mulberry32: a small seeded generator, so a run can be repeated
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (items) => items[Math.floor(random() * items.length)];

function callText(bid) {
  if (bid.bidAmount === 0) return 'pass';
  return bid.isTrump ? `${bid.bidAmount}` : `${bid.bidAmount} no`;
}

function handPlay(game) {
  const round = game.round;
  const dealer = round.dealerIndex;
  while (round.bids.length < round.numPlayers) {
    const player = round.getPlayer();
    const valid = round.getValidBids();
    const passes = valid.filter((bid) => bid.bidAmount === 0);
    // Mostly pass or the lowest bids, sometimes 13 no or 14 no, as tables do.
    const low = valid.filter((bid) => bid.bidAmount > 0 && bid.bidAmount <= 9);
    const high = valid.filter((bid) => bid.bidAmount >= 13);
    let bid;
    const draw = random();
    if (passes.length && draw < 0.6) bid = passes[0];
    else if (high.length && draw > 0.985) bid = pick(high);
    else {
      const bids = valid.filter((b) => b.bidAmount > 0);
      bid = low.length ? pick(low) : bids.length ? pick(bids) : passes[0];
    }
    round.setPlayerBid(player.playerId, bid.bidAmount, bid.isTrump);
  }
  const calls = [];
  for (let k = 1; k <= round.numPlayers; k++) {
    const seat = (dealer + k) % round.numPlayers;
    calls.push(callText(round.bids.find((bid) => bid.bidder.playerIndex === seat)));
  }
  const winning = round.winningBid;
  if (winning.isTrump) round.setTrump(winning.bidder.playerId, pick(['SPADES', 'HEARTS', 'CLUBS', 'DIAMONDS']));
  // A no-trump bid names no trump itself, but kaiser-lib's setTrump refuses it (it is not a
  // trump bid), and no card could then be played: name it as the peer means to.
  else if (!round.trump) round.trump = 'NO_TRUMP';
  const team = Number(winning.bidder.playerIndex % 2);
  while (game.round === round && round.trickIndex <= 8 && !round.done) {
    const player = round.getPlayer();
    const cards = round.playableCards;
    const before = game.roundSummaries.length;
    // The bidding team plays high, the others at random: bids are made, games end.
    const sorted = [...cards].sort((a, b) => b.playValue - a.playValue);
    const card = player.playerIndex % 2 === team ? sorted[0] : pick(cards);
    round.playCard(player.playerId, card);
    if (game.roundSummaries.length > before) break;
  }
  const tricks = [0, 0];
  let five = null;
  let three = null;
  round.teamTotals.forEach((totals) => {
    const side = Number(totals.teamId.replace('team', ''));
    tricks[side] = totals.tricks.length;
    totals.tricks.forEach((taken) =>
      taken.trick.forEach(({ cardPlayed }) => {
        if (cardPlayed.name === 'FIVE' && cardPlayed.suit === 'HEARTS') five = side;
        if (cardPlayed.name === 'THREE' && cardPlayed.suit === 'SPADES') three = side;
      })
    );
  });
  return {
    dealer,
    auction: calls,
    kind: winning.isTrump ? 'trump' : 'no',
    tricks,
    five_hearts: five,
    three_spades: three,
    scores: game.teams.map((t) => t.teamScore),
  };
}

for (let g = 0; g < Number(gamesArg); g++) {
  const minBid = pick([5, 6, 7, 7, 7]);
  const scoreToWin = pick([6, 7, 8, 9, 25, 52, 52, 52, 62]);
  const game = new Game({ id: 'p0', name: 'p0' }, `g${g}`, { numPlayers: 4, minBid, scoreToWin });
  ['p1', 'p2', 'p3'].forEach((id) => game.addPlayer(id, id));
  game.startGame();
  const firstDealer = game.round.dealerIndex;
  const hands = [];
  let winner = null;
  for (let h = 0; h < 300; h++) {
    const round = game.round;
    hands.push(handPlay(game));
    if (game.round === round) {
      const team = game.checkIsWinner();
      winner = team === null ? null : Number(team.replace('team', ''));
      break;
    }
  }
  process.stdout.write(JSON.stringify({ minBid, scoreToWin, firstDealer, hands, winner }) + '\n');
}
