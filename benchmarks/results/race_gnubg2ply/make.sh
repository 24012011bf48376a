#!/bin/sh
# The race net fitted to GNU Backgammon 2-ply values (5 Dec 2026, session 11).
# Run from the repository root; /usr/games/gnubg must be installed (apt-get install gnubg).
# Every chunk file is seeded by (seed, index): a stopped run, rerun, skips the files
# already here and makes the same data; --resume continues the fit bit for bit.
set -e
R=benchmarks/results/race_gnubg2ply

# 1. 40 chunks of 2,000 race positions (no contact, not both home) from 0-ply self-play
#    of the shipped contact net, valued by gnubg 2-ply (cubeless), six gnubg processes;
#    then SGD, 48 hidden units, 40 epochs, the step size falling from 0.1 to 0.01; the
#    last chunk held out (log.jsonl). About 10 minutes for the targets on the shared
#    2-core machine (load 6 to 12), a minute for the fit. Committed as race_g2_48.npz.
python -m dicehall.bots.backgammon.race_training --out $R --chunks 40 --per-chunk 2000 \
  --workers 6 --seed 31 --teacher gnubg:2 --epochs 40 --hidden 48 --alpha 0.1 \
  --export $R/race_g2_48.npz

# 2. judged: where our 0-ply gives away games to gnubg 0-ply (gnubg 2-ply the judge), and
#    the 0-ply games against gnubg 0-ply on the dice of the contact net's seeds 1, 5, 3
python benchmarks/gap_backgammon.py --games 300 --seed 1 --gnubg-plies 2 --gnubg-procs 2 \
  --race-weights $R/race_g2_48.npz
for s in 1 5 3; do
  python benchmarks/strength_backgammon.py 0ply gnubg:0 --games 2000 --seed $s --workers 1 \
    --race-weights $R/race_g2_48.npz \
    --out benchmarks/results/strength_0ply_gnubg0_seed${s}_9d_raceg2.jsonl --resume
done
