"""Maps: randomized, rules-legal layouts per game, an independent checker, and board rendering."""
