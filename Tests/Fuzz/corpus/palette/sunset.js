// Sunset: colours by share of the picture (tailwind.config.js)
module.exports = {
  theme: {
    extend: {
      colors: {
        'pinkish-red': '#E63946', // 50.0%
        'marine': '#1D3557', // 33.3%
        'pale-sky-blue': '#A8DADC', // 16.7%
      },
    },
  },
};
