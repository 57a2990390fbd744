import type { handleUnaryCall, ServerErrorResponse, ServerUnaryCall } from '@grpc/grpc-js';

/**
 * Lets a service implement a gRPC method as an async function that returns the response or throws an
 * AppError, instead of grpc-js's callback style:
 *
 *   const server: PaymentsServiceServer = { getPayment: unaryHandler((request) => getPayment(request)) };
 */
export function unaryHandler<Request, Response>(
  handle: (request: Request, call: ServerUnaryCall<Request, Response>) => Promise<Response>,
): handleUnaryCall<Request, Response> {
  return (call, callback) => {
    handle(call.request, call).then(
      (response) => callback(null, response),
      // The thrown value goes to the callback unchanged: startGrpcServer's wrapper maps it to a gRPC
      // status (once, for every handler) before grpc-js sees it.
      (error: unknown) => callback(error as ServerErrorResponse),
    );
  };
}
