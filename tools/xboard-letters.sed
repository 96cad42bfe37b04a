# Engine FEN letters to XBoard's for xiangqi and janggi: horse N -> H, elephant B -> E (the
# side to move `b` turned into `e` by the third rule is put back by the last).
# usage: sed -f tools/xboard-letters.sed FILE
s/n/h/g
s/N/H/g
s/b/e/g
s/B/E/g
s/ e / b /
