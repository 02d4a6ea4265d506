"""A fake solver that answers with something no SMT solver would say."""
import sys

sys.stdin.read()
print("I am not an SMT solver")
sys.exit(3)
