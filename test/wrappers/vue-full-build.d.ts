// The full build of Vue (runtime and template compiler) has the same API as the `vue` entry.
declare module 'vue/dist/vue.esm-bundler.js' {
  export * from 'vue';
}
