"""The referee: rules, moves and games of Pegs and Jokers.

>>> from referee import Position, Ruleset, legal_moves
>>> position = Position.from_json({"players": 4, "turn": 0, "pegs": {"0": ["T0:8", "S", "S", "S", "S"]}})
>>> for move in legal_moves(position, "7", Ruleset.preset("arizona")):
...     print(move)  # notation; move.result is the Position after it
7 T0:8-T0:15
>>> [position.board.hole_name(hole) for hole in move.result.pegs(0)]
['T0:15', 'S0', 'S0', 'S0', 'S0']
"""

from referee.board import Board, BoardError
from referee.cards import CARDS, CardError, parse_card
from referee.movegen import free_come_outs, legal_moves, mover_seats, parse_move
from referee.moves import Bump, Move, NotationError, Step
from referee.position import Position, PositionError
from referee.rulesets import PRESETS, CardPower, Ruleset, RulesetError, Split

__all__ = [
    "CARDS",
    "PRESETS",
    "Board",
    "BoardError",
    "Bump",
    "CardError",
    "CardPower",
    "Move",
    "NotationError",
    "Position",
    "PositionError",
    "Ruleset",
    "RulesetError",
    "Split",
    "Step",
    "free_come_outs",
    "legal_moves",
    "mover_seats",
    "parse_card",
    "parse_move",
]
