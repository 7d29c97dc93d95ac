import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type BuildSerializer = ReturnType<typeof SerializerSelector>;
type Serialize = ReturnType<ReturnType<BuildSerializer>>;

const fastifyDefault = SerializerSelector();

/**
 * Fastify's own response serializer compiler (fast-json-stringify, the same options), except that a route's response
 * schema is compiled when the route first answers with that status rather than at start, as lazy-validators.ts does
 * for request schemas: every route declares its answer (the OpenAPI document), and compiling some 430 serializers
 * added about 0.3 s of CPU to each server process's start, for routes most of which a given process answers late or
 * never.
 */
export const lazySerializers: BuildSerializer = (externalSchemas, options) => {
  const compile = fastifyDefault(externalSchemas, options);
  return (route) => {
    let compiled: Serialize | undefined;
    return (doc) => (compiled ??= compile(route))(doc);
  };
};
