# a background job still running when the script ends keeps its output,
# as bash's reader gets a job's output until it ends (here: for a short
# while, bash.bgGrace)
echo start
{ sleep 0.01; echo late; } &
