# bash's dynamic variables: SECONDS counts on from an assignment,
# EPOCHSECONDS and EPOCHREALTIME are the clock, SRANDOM and RANDOM are
# random; assigning EPOCHSECONDS, EPOCHREALTIME or SRANDOM changes
# nothing, and each is a plain variable once unset
echo "seconds [$SECONDS]"
SECONDS=41; echo "after SECONDS=41: $SECONDS"
SECONDS='2*5'; echo "arithmetic: $SECONDS"
echo "epoch digits ${#EPOCHSECONDS}"
[[ $EPOCHREALTIME =~ ^[0-9]{10}\.[0-9]{6}$ ]] && echo "realtime has six places"
e=$EPOCHSECONDS; r=${EPOCHREALTIME%.*}; (( r - e <= 1 )) && echo "realtime agrees"
EPOCHSECONDS=1; EPOCHREALTIME=2; SRANDOM=3
[ "$EPOCHSECONDS" != 1 ] && [ "$EPOCHREALTIME" != 2 ] && echo "assignments ignored"
(( SRANDOM >= 0 && SRANDOM < 4294967296 )) && echo "srandom in range"
[ "$SRANDOM" != "$SRANDOM" ] && echo "srandom differs"
for v in SECONDS EPOCHSECONDS EPOCHREALTIME SRANDOM RANDOM; do
	unset "$v"; echo "$v unset: [${!v}]"
	declare "$v=7"; echo "$v now plain: ${!v}"
done
( echo "subshell seconds [$SECONDS]" )
