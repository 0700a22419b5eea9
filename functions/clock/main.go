// Command clock is the scheduled Lambda function that keeps the move clocks
// (API.md "Clocks"): every minute it times out the seats whose deadline has
// passed and sends the reminders that are due, finding the games through
// the table's due index (see package lambdaapp and api.Handler.Sweep).
package main

import "tessera/functions/lambdaapp"

func main() { lambdaapp.RunClock() }
