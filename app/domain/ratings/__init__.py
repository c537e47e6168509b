"""Club ratings: the rated games of a tournament, Elo and Glicko-2 over one rating period.

A rating period is one tournament: every player's new rating comes from the ratings all had
before it and the games played in it. Pure and deterministic; the club's service stores them.
"""
