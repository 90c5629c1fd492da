"""The most queries a player's page makes, whatever the number of games: the club, session,
user, membership, player, rating, rating points and season lines; for a member the seasons and
players of the filter, the games and their seats, the games' summaries, the ratings before each
game, and the hands with their seats; a filter on a season, partner or opponent reads the one
chosen (three more at most: PLAYER_PAGE_QUERIES_FILTERED)."""

PLAYER_PAGE_QUERIES = 16
PLAYER_PAGE_QUERIES_FILTERED = PLAYER_PAGE_QUERIES + 3
