"""Tournament pages: the director's dashboard, seating, standings, table cards, find your table."""
