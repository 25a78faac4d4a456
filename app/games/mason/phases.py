"""The phases of a Mason Rummy game (its state machine, game.py); the bot reads them too."""

DRAW_PHASE = "draw"  # Menu D is next
PLAY_PHASE = "play"  # Menu E is next
ROUND_OVER = "round_over"  # a round summary is showing (R9.3)
GAME_OVER = "game_over"
