// Command player is the Lambda function behind a player's own routes: GET
// /api/me (the key's games), PUT and DELETE /api/me/push (its devices) and
// GET /api/push (the VAPID public key). It serves the shared API handler
// (see package lambdaapp); its IAM role allows only what these routes need.
package main

import "tessera/functions/lambdaapp"

func main() { lambdaapp.Run() }
