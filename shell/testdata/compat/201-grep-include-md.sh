grep -rn --include='*.md' TODO .
