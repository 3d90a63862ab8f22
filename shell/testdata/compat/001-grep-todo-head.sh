# The classic first look at a codebase.
cd src && grep -rn TODO . | sort | head -5
