import { Transform } from 'class-transformer';

/**
 * Some clients (Python ones in particular) send `null` for an option they leave unset. A property
 * initializer only covers a missing key, so an explicit `null` is replaced by the documented default
 * here; otherwise the service would see `null` where the type promises a value.
 */
export function NullAsDefault<T>(defaultValue: T): PropertyDecorator {
  return Transform(({ value }) => {
    if (value !== null) return value;
    return Array.isArray(defaultValue) ? [...defaultValue] : defaultValue;
  });
}
