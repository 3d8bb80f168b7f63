"""Server-rendered phone pages: sign in, club home, new game, the game page, table links."""
