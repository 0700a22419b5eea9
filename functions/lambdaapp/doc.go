// Package lambdaapp is the shared body of the four Lambda functions (create,
// join, state, move). Each of them is a thin main that calls Run: it reads the
// function's environment, opens the DynamoDB store, builds the one API handler
// every deployment serves, and hands it to the Lambda runtime through
// aws-lambda-go-api-proxy's adapter for API Gateway HTTP API (payload v2)
// events.
//
// All four functions run the same handler; API Gateway's routes decide which
// function receives which request, so each function can be given only the
// DynamoDB permissions its routes need.
package lambdaapp
