// Command create is the Lambda function behind POST /api/games. It serves the
// shared API handler (see package lambdaapp); API Gateway routes the request
// here, and the function's IAM role allows only what this route needs.
package main

import "tessera/functions/lambdaapp"

func main() { lambdaapp.Run() }
