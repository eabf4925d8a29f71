"""ランキング `/ranking?period=&genre=&page=`: series ordered by distinct
readers in the period, with their movement; its view, state and query."""
