// Replays kaiser-lib's own test vectors (src/Game/Game.test.ts, with the data of its
// src/Game/__mocks__/Game.ts) on the compiled peer, step by step as its test does, and prints one
// JSON document: what our record needs of each played hand (the auction from the dealer's left,
// tricks per team, who took the five of hearts and the three of spades), the scores the peer
// reached and the ones its test expects, and the calls its test says are valid or refused. Our
// own driver: the peer and its mocks are loaded from the fetched, compiled source (see
// kaiserlib_vectors.py), never copied here.
//
// usage: node bench/peers/kaiserlib_vectors.js DIST_DIR
'use strict';

const [dist] = process.argv.slice(2);
const { Game } = require(`${dist}/Game/Game.js`);
const mock = require(`${dist}/Game/__mocks__/Game.js`);
console.log = () => {}; // the peer announces each winner on the console
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

function callText(bid) {
  if (bid.bidAmount === 0) return 'pass';
  return bid.isTrump ? `${bid.bidAmount}` : `${bid.bidAmount} no`;
}

function refused(action) {
  try {
    action();
    return false;
  } catch (error) {
    return true;
  }
}

// "4 player Game playthrough": the same players, hands, bids and plays as the peer's test.
const game = new Game(mock.MOCK_USER_0, 'gameId12345', mock.MOCK_GAME_CONFIG);
for (const user of [mock.MOCK_USER_1, mock.MOCK_USER_2, mock.MOCK_USER_3]) {
  game.addPlayer(user.id, user.name);
}
game.startGame();
const round = game.round;
round.hands = JSON.parse(JSON.stringify(mock.MOCK_HANDS));
round.sortHands();
const dealer = round.dealerIndex;
const validBids = round.getValidBids().map(callText);
const expectedValid = mock.MOCK_VALID_BIDS.map(callText);
const fiveRefused = refused(() => round.setPlayerBid('mockUser1', 5, true));
const bids = [
  ['mockUser1', 7, true],
  ['mockUser2', 7, false],
  ['mockUser3', 8, true],
  ['mockUser0', 8, true], // the dealer equals the high bid
];
for (const [user, amount, trump] of bids) round.setPlayerBid(user, amount, trump);
const fifthRefused =
  refused(() => round.setPlayerBid('mockUser5', 8, true)) &&
  refused(() => round.setPlayerBid('mockUser0', 10, false));
const auction = round.bids.map(callText);
round.setTrump('mockUser0', 'HEARTS');
// The first trick as the test plays it (a card that does not follow suit is refused first),
// then the other seven, each seat playing its first playable card.
round.playCard('mockUser0', round.hands[0].hand[0]);
round.playCard('mockUser1', round.hands[1].hand[3]);
for (let seat = 1; seat < 4; seat++) round.playCard(`mockUser${seat}`, round.hands[seat].hand[0]);
for (let trick = 1; trick < 8; trick++) {
  for (let seat = 0; seat < 4; seat++) round.playCard(`mockUser${seat}`, round.hands[seat].hand[0]);
}
const teamOf = (teamId) => Number(teamId.slice(-1));
const tricks = [0, 0];
let fiveHearts = null;
let threeSpades = null;
for (const team of round.teamTotals) {
  for (const taken of team.tricks) {
    tricks[teamOf(team.teamId)] += 1;
    for (const play of taken.trick) {
      const card = play.cardPlayed;
      if (card.suit === 'HEARTS' && card.faceValue === 5) fiveHearts = teamOf(team.teamId);
      if (card.suit === 'SPADES' && card.faceValue === 3) threeSpades = teamOf(team.teamId);
    }
  }
}
const summary = game.roundSummaries[0];
print({
  config: mock.MOCK_GAME_CONFIG,
  valid_bids: { peer: validBids, expected: expectedValid },
  refused: { bid_below_min_bid: fiveRefused, fifth_call: fifthRefused },
  hands: [
    {
      dealer,
      auction,
      tricks,
      five_hearts: fiveHearts,
      three_spades: threeSpades,
      peer: {
        made: summary.isBidMade,
        points: summary.teamPoints.map((team) => team.points),
        scores: game.teams.map((team) => team.teamScore),
      },
      expected: {
        made: mock.MOCK_ROUND_SUMMARY.isBidMade,
        points: mock.MOCK_ROUND_SUMMARY.teamPoints.map((team) => team.points),
        scores: mock.MOCK_TEAM_SCORES.map((team) => team.teamScore),
      },
    },
  ],
});
