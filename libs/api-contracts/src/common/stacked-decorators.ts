/**
 * One property decorator made of `decorators` applied as the same stack written above the property would be (the last
 * first), so a shared field declaration keeps the order of its validation messages.
 */
export function stackedDecorators(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, propertyKey) => [...decorators].reverse().forEach((decorate) => decorate(target, propertyKey));
}
