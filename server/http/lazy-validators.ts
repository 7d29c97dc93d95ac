import AjvCompiler from '@fastify/ajv-compiler';

type BuildValidator = ReturnType<typeof AjvCompiler>;
type Validate = ReturnType<ReturnType<BuildValidator>>;

const fastifyDefault = AjvCompiler();

/**
 * Fastify's own validator compiler (@fastify/ajv-compiler, the same ajv options), except that a route's request
 * schemas are compiled by ajv when the route is first called rather than all at once when the app starts: compiling
 * every route's was a third of a server process's start (~0.45 of 1.4 s CPU) and most routes are not called soon
 * after, some never by a given process. A route's first request pays its compile, a millisecond or a few.
 * `errors` is read off the function fastify was given, after the call: it is passed through from ajv's.
 */
export const lazyValidators: BuildValidator = (externalSchemas, options) => {
  const compile = fastifyDefault(externalSchemas, options);
  return (route) => {
    let compiled: Validate | undefined;
    const validate = ((data: unknown) => (compiled ??= compile(route))(data)) as Validate;
    Object.defineProperty(validate, 'errors', { get: () => compiled?.errors, set: (errors) => { if (compiled) compiled.errors = errors; } });
    return validate;
  };
};
